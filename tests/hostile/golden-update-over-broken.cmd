check SCENE --golden GOLDEN --update
