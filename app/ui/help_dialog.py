"""Help (F1): what the window is for, how to ask, what each pane shows, and the keyboard."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from .examples import START

# (keys, what they do), as the window binds them; the keys are shown as written here.
KEYS = (
    ("Enter", "ask the question in the box; on an example, ask it; on an event, open it"),
    ("Esc", "stop the question being answered (or the import being read)"),
    ("Up / Down", "in the question box: earlier questions"),
    ("Tab / Shift+Tab", "go from pane to pane"),
    ("F2", "under “How it was answered”: edit the selected step and run the tree again"),
    ("Ctrl+O", "import files"),
    ("Ctrl+Shift+C", "copy the answer"),
    ("Ctrl+S", "save the answer, how it was answered and its evidence as Markdown"),
    ("Ctrl+,", "settings"),
    ("F1", "this help"),
)

HELP = f"""
<h2>Lifelens</h2>
<p>Lifelens answers questions about your own data exports (music, films, purchases, workouts, calendar and
mail), on this computer. Nothing leaves it.</p>
<h3>Bringing your data</h3>
<p>{START}</p>
<h3>Asking</h3>
<p>Type a question and press Enter, or pick one of the examples. The answer says what was found and how many
of your events it rests on. A question that asks for the most or the least also names the ones that came
next; a question by month, weekday or artist draws a chart.</p>
<p><b>How it was answered</b> shows the smaller questions the answer was built from, each with the number of
events it found; select one to see its events under <b>Evidence</b>. Open an event to read it whole and to find
the file it came from.</p>
<p>Right after an answer, <i>and in 2022?</i> asks the same question for 2022, and <i>only on weekends</i>
(weekdays, mornings, afternoons, evenings, at night) keeps it to that part of the week, with the same steps;
<i>who was with me?</i> names the people of the events it counted (a calendar entry's attendees, a mail's sender
and recipients).</p>
<p>When an answer went wrong at one step (it looked for the wrong thing, grouped by the wrong field), select
that step and press <b>Edit this step…</b>: change what it looks for, how it filters or groups, and the tree runs
again with your change.</p>
<p>When a question gets no answer, the window says why: you stopped it, it ran past its time limit, or a step
failed. Rephrasing it, or asking about a shorter period, often helps.</p>
<p>The <b>History</b> tab keeps your questions with their answers: a past question opens its answer at once.
The <b>Answer</b> menu copies an answer or saves it, with how it was answered and its events.</p>
"""


def help_html() -> str:
    rows = "".join(f"<tr><td style='padding-right:16px'><b>{keys}</b></td><td>{what}</td></tr>" for keys, what in KEYS)
    return HELP + f"<h3>Keyboard</h3><table>{rows}</table>"


class HelpDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Lifelens Help")
        self.text = QTextBrowser()
        self.text.setOpenExternalLinks(False)
        self.text.setHtml(help_html())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        self.resize(620, 560)
