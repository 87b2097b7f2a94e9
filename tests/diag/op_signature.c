#pragma adsoac operator neutral(0.0)
static double half(double a) { return a / 2; }
