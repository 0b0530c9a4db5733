check SCENE --golden GOLDEN --threshold 1e309
