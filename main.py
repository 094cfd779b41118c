# main.py runs after boot.py: start the arcade (firmware/app.py does the work,
# including safe boot and the crash screen, so this file never needs to change).
from firmware import app

app.main()
