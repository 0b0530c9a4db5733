seek @ --frame 10000001 -o OUT/f.png
