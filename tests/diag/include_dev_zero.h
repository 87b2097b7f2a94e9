// included by include_dev_zero.c
#define K 2
  #include "/dev/zero"
