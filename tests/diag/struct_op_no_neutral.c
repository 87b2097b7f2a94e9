typedef struct { double a, b; } Lin;
#pragma adsoac operator commutative
static Lin lin_then(Lin f, Lin g) { return (Lin){g.a * f.a, g.a * f.b + g.b}; }
