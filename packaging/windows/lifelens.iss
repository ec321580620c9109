; Inno Setup 6 script for Lifelens (run by packaging\windows\build.ps1 on a Windows runner; not built on Linux).
;   iscc /DAppVersion=0.1.0 /DSourceDir=dist\installer\lifelens /Odist\installer packaging\windows\lifelens.iss
;
; Installs the PyInstaller bundle into Program Files (or the person's own programs folder when they pick
; "install for me only"), adds a Start-menu entry, and uninstalls exactly the installed files. The person's
; data (%LOCALAPPDATA%\Lifelens: event store, settings) is never touched by setup or uninstall; Lifelens
; deletes it only from its own "Delete all my data" command.

#ifndef AppVersion
  #error Pass /DAppVersion=X.Y.Z
#endif
#ifndef SourceDir
  #error Pass /DSourceDir=path\to\the\bundle
#endif

[Setup]
AppId={{6F0C2B54-1D7E-4C11-9B0E-5A3C7E2D9F41}
AppName=Lifelens
AppVersion={#AppVersion}
AppPublisher=Lifelens developers
DefaultDirName={autopf}\Lifelens
DefaultGroupName=Lifelens
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputBaseFilename=Lifelens-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
LZMANumBlockThreads=4
WizardStyle=modern
UninstallDisplayIcon={app}\Lifelens.exe
UninstallDisplayName=Lifelens {#AppVersion}

[Tasks]
Name: "desktopicon"; Description: "Create a desktop shortcut"; Flags: unchecked

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Lifelens"; Filename: "{app}\Lifelens.exe"
Name: "{autodesktop}\Lifelens"; Filename: "{app}\Lifelens.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\Lifelens.exe"; Description: "Start Lifelens"; Flags: nowait postinstall skipifsilent
