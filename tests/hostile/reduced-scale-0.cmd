render @ --reduced-motion -o OUT
