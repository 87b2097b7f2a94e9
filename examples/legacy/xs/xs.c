// A Monte-Carlo cross-section lookup as XSBench writes it in C (simplified data setup), with
// pragmas added: an array of structs from a project header, a binary search in a while loop,
// a grid-type switch written as if/else (nuclide grid, unionized grid, hash bins), pointers to
// the grid points below and above the energy (low->energy, high->total_xs), a double
// xs_vector[5] accumulated over the nuclides of a material, the results of lookup i at
// results[5*i + k].  Derivatives of the results with respect to the cross-section tables and
// the concentrations (the energies only choose grid intervals and interpolate).
#include "xs_types.h"

long grid_search(long n, double quarry, const double *A) {
  long lowerLimit = 0;
  long upperLimit = n - 1;
  long examinationPoint;
  long length = upperLimit - lowerLimit;
  while (length > 1) {
    examinationPoint = lowerLimit + (length / 2);
    if (A[examinationPoint] > quarry)
      upperLimit = examinationPoint;
    else
      lowerLimit = examinationPoint;
    length = upperLimit - lowerLimit;
  }
  return lowerLimit;
}

long grid_search_nuclide(long n, double quarry, const NuclideGridPoint *A, long low, long high) {
  long lowerLimit = low;
  long upperLimit = high;
  long examinationPoint;
  long length = upperLimit - lowerLimit;
  while (length > 1) {
    examinationPoint = lowerLimit + (length / 2);
    if (A[examinationPoint].energy > quarry)
      upperLimit = examinationPoint;
    else
      lowerLimit = examinationPoint;
    length = upperLimit - lowerLimit;
  }
  return lowerLimit;
}

void calculate_micro_xs(double p_energy, int nuc, long n_isotopes, long n_gridpoints,
                        const double *egrid, const int *index_data,
                        const NuclideGridPoint *nuclide_grids, long idx, double *xs_vector,
                        int grid_type, int hash_bins) {
  double f;
  const NuclideGridPoint *low, *high;
  if (grid_type == NUCLIDE) {
    idx = grid_search_nuclide(n_gridpoints, p_energy, &nuclide_grids[nuc * n_gridpoints], 0,
                              n_gridpoints - 1);
    if (idx == n_gridpoints - 1)
      low = &nuclide_grids[nuc * n_gridpoints + idx - 1];
    else
      low = &nuclide_grids[nuc * n_gridpoints + idx];
  } else if (grid_type == UNIONIZED) {
    if (index_data[idx * n_isotopes + nuc] == n_gridpoints - 1)
      low = &nuclide_grids[nuc * n_gridpoints + index_data[idx * n_isotopes + nuc] - 1];
    else
      low = &nuclide_grids[nuc * n_gridpoints + index_data[idx * n_isotopes + nuc]];
  } else {
    int u_low = index_data[idx * n_isotopes + nuc];
    int u_high;
    if (idx == hash_bins - 1)
      u_high = n_gridpoints - 1;
    else
      u_high = index_data[(idx + 1) * n_isotopes + nuc] + 1;
    double e_low = nuclide_grids[nuc * n_gridpoints + u_low].energy;
    double e_high = nuclide_grids[nuc * n_gridpoints + u_high].energy;
    int lower;
    if (p_energy <= e_low)
      lower = 0;
    else if (p_energy >= e_high)
      lower = n_gridpoints - 1;
    else
      lower = grid_search_nuclide(n_gridpoints, p_energy, &nuclide_grids[nuc * n_gridpoints],
                                  u_low, u_high);
    if (lower == n_gridpoints - 1)
      low = &nuclide_grids[nuc * n_gridpoints + lower - 1];
    else
      low = &nuclide_grids[nuc * n_gridpoints + lower];
  }
  high = low + 1;
  f = (high->energy - p_energy) / (high->energy - low->energy);
  xs_vector[0] = high->total_xs - f * (high->total_xs - low->total_xs);
  xs_vector[1] = high->elastic_xs - f * (high->elastic_xs - low->elastic_xs);
  xs_vector[2] = high->absorbtion_xs - f * (high->absorbtion_xs - low->absorbtion_xs);
  xs_vector[3] = high->fission_xs - f * (high->fission_xs - low->fission_xs);
  xs_vector[4] = high->nu_fission_xs - f * (high->nu_fission_xs - low->nu_fission_xs);
}

void calculate_macro_xs(double p_energy, int mat, long n_isotopes, long n_gridpoints,
                        const int *num_nucs, const double *concs, const double *egrid,
                        const int *index_data, const NuclideGridPoint *nuclide_grids,
                        const int *mats, double *macro_xs_vector, int grid_type, int hash_bins,
                        int max_num_nucs) {
  int p_nuc;
  long idx = -1;
  double conc;
  for (int k = 0; k < 5; k++) macro_xs_vector[k] = 0;
  if (grid_type == UNIONIZED)
    idx = grid_search(n_isotopes * n_gridpoints, p_energy, egrid);
  else if (grid_type == HASH) {
    double du = 1.0 / hash_bins;
    idx = p_energy / du;
  }
  for (int j = 0; j < num_nucs[mat]; j++) {
    double xs_vector[5];
    p_nuc = mats[mat * max_num_nucs + j];
    conc = concs[mat * max_num_nucs + j];
    calculate_micro_xs(p_energy, p_nuc, n_isotopes, n_gridpoints, egrid, index_data,
                       nuclide_grids, idx, xs_vector, grid_type, hash_bins);
    for (int k = 0; k < 5; k++) macro_xs_vector[k] += xs_vector[k] * conc;
  }
}

#pragma adsoac grad
void xs_lookup(int nl, int niso, int ngp, int grid_type, int maxnuc, int hash_bins,
               const NuclideGridPoint *grids, const double *egrid, const int *index_data,
               const int *num_nucs, const int *mats, const double *concs,
               const double *energies, const int *mat_samples, double *results) {
#pragma adsoac map
  for (int i = 0; i < nl; i++) {
    double macro_xs_vector[5] = {0};
    calculate_macro_xs(energies[i], mat_samples[i], niso, ngp, num_nucs, concs, egrid,
                       index_data, grids, mats, macro_xs_vector, grid_type, hash_bins, maxnuc);
    for (int k = 0; k < 5; k++) results[5 * i + k] = macro_xs_vector[k];
  }
}
