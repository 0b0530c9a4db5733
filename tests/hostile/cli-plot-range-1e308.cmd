plot @ --values x -o OUT/p.png --from 0 --to 1e308 --width 64 --height 32
