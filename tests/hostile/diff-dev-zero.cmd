diff /dev/zero REF
