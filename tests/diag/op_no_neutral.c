#pragma adsoac operator commutative
static double add(double a, double b) { return a + b; }
