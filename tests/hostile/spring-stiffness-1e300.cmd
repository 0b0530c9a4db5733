sample @ --times 0,0.355,1e300
