#pragma adsoac grad
void s(){int j=0?:t;}