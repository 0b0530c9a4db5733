plot @ --values x -o OUT/p.png --width 16384 --height 16384
