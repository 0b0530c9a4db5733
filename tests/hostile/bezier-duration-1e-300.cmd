sample @ --times 0,1e-300
