diff @ REFA
