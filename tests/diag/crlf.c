// CR LF line ends (DOS files): the quoted line has no CR
#pragma adsoac grad
double f(double x) {
  double y = x;
  goto end;
end:
  return y;
}
