// #pragma adsoac operator before something that is not a function definition with parameters
#pragma adsoac operator neutral(0.0)
double a{}
