from promolint.cli.main import main

raise SystemExit(main())
