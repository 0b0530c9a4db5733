sample @ --times 0,1e-323,1
