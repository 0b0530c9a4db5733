seek @ --time 1e309 -o OUT/f.png
