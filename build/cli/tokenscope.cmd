@echo off
rem `tokenscope` from inside the desktop app: the app's own Electron runs the bundled CLI as Node.
rem Add this folder (<install dir>\resources\cli) to PATH: README "The CLI from the desktop app".
setlocal
set ELECTRON_RUN_AS_NODE=1
"%~dp0..\..\Tokenscope.exe" "%~dp0tokenscope.js" %*
exit /b %ERRORLEVEL%
