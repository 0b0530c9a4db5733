check SCENE --golden tests/hostile/ref.png
