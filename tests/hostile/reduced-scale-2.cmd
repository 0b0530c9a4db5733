sample @ --reduced-motion
