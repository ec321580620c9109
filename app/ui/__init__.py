"""The desktop app (PySide6). The only part of Lifelens that imports Qt.

Layout: plain-Python helpers (`presenting`, `examples`, `report_tree`, `data_removal`, `answering`) are
tested without Qt; item models (`*_model.py`) sit over them; widgets (`*_pane.py`, dialogs) show the
models; `main_window.MainWindow._connect_signals` wires everything in one place; `launch.open_window`
starts the app. Long work runs in `jobs` on worker threads.
"""
