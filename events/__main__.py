from events.cli import main

main()
