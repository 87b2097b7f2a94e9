// a caret after UTF-8 on its line stands under the character: a space per character
#pragma adsoac grad
double f(double x) {
  double y = x; /* ½·x² */ goto end;
end:
  return y;
}
