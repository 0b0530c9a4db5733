check @ --golden GOLDEN
