sample @ --times 0,0.5,1e15
