seek @ --frame 99999999999999999999 -o OUT/f.png
