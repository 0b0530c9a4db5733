seek @ --time 1e300 -o OUT/f.png
