# Build the Windows installer (written for GitHub's windows-2022 runner; NOT built or run on the Linux machine
# where the Linux recipe was developed): dist\installer\Lifelens-<version>-windows-x64-setup.exe (Inno Setup),
# a .zip of the unpacked bundle and the bundle itself (dist\installer\lifelens\).
#
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1
#
# Needs: Python 3.11 x64 (python.org or actions/setup-python), Visual Studio 2022 Build Tools with the C++
# workload and CMake (llama.cpp is compiled here, portably), Inno Setup 6 (iscc.exe), the package registry.
$ErrorActionPreference = "Stop"
$Root = Resolve-Path "$PSScriptRoot\..\.."
Set-Location $Root

function Invoke-Checked {
    param([string]$Exe, [Parameter(ValueFromRemainingArguments = $true)][string[]]$Rest)
    & $Exe @Rest
    if ($LASTEXITCODE -ne 0) { throw "failed ($LASTEXITCODE): $Exe $Rest" }
}

$Python = if ($env:PYTHON) { $env:PYTHON } else { "python" }
$Build = Join-Path $Root "build\installer"
$Dist = Join-Path $Root "dist\installer"
$PyInstallerVersion = "6.22.3"
# Portable llama.cpp: no /arch tuned to the build machine; AVX2 stays on (CPUs since 2013-2015). No mtmd.
$LlamaCmakeArgs = "-DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF"
$Started = Get-Date

$Version = (& $Python packaging\prepare.py version).Trim()
$Reqs = & $Python packaging\prepare.py requirements gui,models
$LlamaVersion = (($Reqs | Select-String '^llama-cpp-python==(.+)$').Matches[0].Groups[1].Value).Trim()

New-Item -ItemType Directory -Force $Build, $Dist | Out-Null
$Venv = Join-Path $Build "venv"
if (-not (Test-Path "$Venv\Scripts\python.exe")) { Invoke-Checked $Python -m venv $Venv }
$VPy = "$Venv\Scripts\python.exe"

Write-Host "== llama-cpp-python $LlamaVersion ($LlamaCmakeArgs)"
$Wheels = Join-Path $Build "wheels"
$Wheel = Get-ChildItem "$Wheels\llama_cpp_python-*.whl" -ErrorAction SilentlyContinue | Select-Object -First 1
if (-not $Wheel) {
    $env:CMAKE_ARGS = $LlamaCmakeArgs
    # --no-cache-dir: pip's wheel cache is keyed on the source only and could return a natively tuned build.
    Invoke-Checked $VPy -m pip wheel --no-deps --no-cache-dir --no-binary llama-cpp-python -w $Wheels "llama-cpp-python==$LlamaVersion"
    $Wheel = Get-ChildItem "$Wheels\llama_cpp_python-*.whl" | Select-Object -First 1
}

Write-Host "== requirements"
$Reqs | Where-Object { $_ -notmatch '^llama-cpp-python' } | Set-Content "$Build\requirements.txt"
Invoke-Checked $VPy -m pip install -q $Wheel.FullName -r "$Build\requirements.txt" "pyinstaller==$PyInstallerVersion" pillow

Write-Host "== default QUD model and icon"
$env:LIFELENS_GGUF = (& $VPy packaging\prepare.py gguf "$Build\gguf").Trim()
$env:LIFELENS_ICON = (& $VPy packaging\prepare.py icon "$Build\lifelens.png").Trim()

Write-Host "== PyInstaller"
if (Test-Path "$Build\pyi-dist") { Remove-Item -Recurse -Force "$Build\pyi-dist" }
Invoke-Checked "$Venv\Scripts\pyinstaller.exe" --noconfirm --log-level WARN --workpath "$Build\pyi-work" --distpath "$Build\pyi-dist" packaging\lifelens.spec
$Bundle = "$Build\pyi-dist\lifelens"
Invoke-Checked "$Bundle\lifelens-cli.exe" --version

Write-Host "== packing $Dist"
if (Test-Path "$Dist\lifelens") { Remove-Item -Recurse -Force "$Dist\lifelens" }
Move-Item $Bundle "$Dist\lifelens"
$Zip = "$Dist\lifelens-$Version-windows-x64.zip"
if (Test-Path $Zip) { Remove-Item $Zip }
Compress-Archive -Path "$Dist\lifelens" -DestinationPath $Zip -CompressionLevel Optimal

$Iscc = (Get-Command iscc.exe -ErrorAction SilentlyContinue).Source
if (-not $Iscc) { $Iscc = "${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe" }
Invoke-Checked $Iscc "/DAppVersion=$Version" "/DSourceDir=$Dist\lifelens" "/O$Dist" packaging\windows\lifelens.iss

$Seconds = [int]((Get-Date) - $Started).TotalSeconds
Get-ChildItem $Dist -File | ForEach-Object { "{0,10:N1} MB  {1}" -f ($_.Length / 1MB), $_.Name }
Write-Host "== done in $Seconds s"
