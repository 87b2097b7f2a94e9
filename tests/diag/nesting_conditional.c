// ?: nests its operands as an if does: 257 conditional operators, one in the other
#pragma adsoac grad
double f(double a) {
  double s = a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : a > 0 ? a : 
      a > 1 ? a * 2 : a;
  return s;
}
