preview @ --scale nan
