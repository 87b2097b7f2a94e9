#pragma adsoac operator neutral(0.0) commutative inverse(minus)
static double add(double a, double b) { return a + b; }
