#pragma adsoac operator neutral()
s a{}