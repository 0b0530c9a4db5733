sample @ --reduced-motion --times 0,0.5
