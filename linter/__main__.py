from promolint.cli import main

raise SystemExit(main())
