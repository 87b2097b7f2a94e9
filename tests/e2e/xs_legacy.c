// examples/legacy/xs: the legacy kernel, pragmas added and nothing else changed (its README)
// e2e: sizes nl=0,1,3,6 niso=2,2,3,4 ngp=3,4,5,6
// e2e: int grid_type = nl % 3
// e2e: int maxnuc = niso
// e2e: int hash_bins = 4
// e2e: struct grids[niso*ngp] energy=fill(((i % ngp) + 0.25 + 0.5 * r) / ngp) total_xs=range(0,2) elastic_xs=range(0,2) absorbtion_xs=range(0,2) fission_xs=range(0,2) nu_fission_xs=range(0,2)
// e2e: array egrid[niso*ngp] fill(((i / niso) + 0.5 + 0.25 * r) / ngp)
// e2e: array index_data[niso*niso*ngp] fill((i / niso) / niso % ngp < ngp - 1 ? (i / niso) / niso % ngp : ngp - 2)
// e2e: array num_nucs[2] fill(i == 0 ? niso : niso - 1)
// e2e: array mats[2*niso] fill(i % niso)
// e2e: array concs[2*niso] range(0.1,1)
// e2e: array energies[nl] fill(0.4 + 0.1 * r)
// e2e: array mat_samples[nl] fill(i % 2)
// e2e: array results[5*nl] range(-1,1)
// e2e: source ../../examples/legacy/xs/xs.c
