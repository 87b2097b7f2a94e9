#pragma adsoac grad
int k;
