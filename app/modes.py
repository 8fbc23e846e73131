"""Operator mode (big verdict, minimal controls, tuning locked) and engineer mode (everything,
behind a PIN set in the settings).

Operator mode gives the live image most of the screen (source row, tuning, plots and tag text
hidden; results in a narrow column) and hides maintenance actions (Prune image archive, PIN,
recipe approval); the operator still picks a recipe, from the ones an engineer approved."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QDockWidget, QInputDialog, QLineEdit, QMessageBox

from app.words import counted

OPERATOR, ENGINEER = "operator", "engineer"


class ModeController:
    def __init__(self, window) -> None:
        self.window = window
        self.settings = window.settings
        menu = window.mode_menu
        group = QActionGroup(window)
        self.operator_action = QAction("Operator", window, checkable=True, triggered=lambda: self.set_mode(OPERATOR))
        self.engineer_action = QAction("Engineer…", window, checkable=True, triggered=self._ask_engineer)
        for action in (self.operator_action, self.engineer_action):
            group.addAction(action)
            menu.addAction(action)
        menu.addSeparator()
        self.pin_action = QAction("Set engineer PIN…", window, triggered=self.change_pin)
        self.approve_action = QAction("Approve current recipe for operators", window, triggered=self.approve_recipe)
        menu.addAction(self.pin_action)
        menu.addAction(self.approve_action)
        self.mode = ENGINEER
        self._docks = _DockWatcher(self)  # docks added later (I/O, Servers) get the mode's dock features too
        window.installEventFilter(self._docks)
        self.set_mode(self.settings.get("mode/current", ENGINEER) if self.settings.has_pin() else ENGINEER)

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        operator = mode == OPERATOR
        w = self.window
        w.tuning.set_locked(operator)
        for key in ENGINEER_DOCKS:
            w.docks[key].toggleViewAction().setEnabled(not operator)
        w.banner.set_large(operator)
        bar = w.source_bar
        for control in (bar.kind, bar.path, bar.browse, bar.resolution, bar.open_button, bar.reading, bar.loop,
                        bar.fps_cap):
            control.setEnabled(not operator)  # the operator runs the source the engineer set up
        bar.set_compact(operator)
        for action in maintenance_actions(w) + [self.pin_action, self.approve_action]:
            action.setVisible(not operator)
        w.layout_for_mode(operator)
        self.fix_docks()
        self.operator_action.setChecked(operator)
        self.engineer_action.setChecked(not operator)
        self.settings.set("mode/current", mode)
        if hasattr(w, "state"):
            w.state.update(mode=mode)
        w.setWindowTitle(f"Hangtag Station — {mode} mode")

    def fix_docks(self) -> None:
        """Operator mode: every dock stays where the layout put it, without float or close buttons (an operator
        who floats the Results off screen or closes it has lost it); the Results can't be hidden from the View
        menu either. Engineer mode: movable, floatable and closable, as Qt's docks are."""
        operator = self.mode == OPERATOR
        features = (QDockWidget.DockWidgetFeature.NoDockWidgetFeatures if operator else
                    QDockWidget.DockWidgetFeature.DockWidgetClosable | QDockWidget.DockWidgetFeature.DockWidgetMovable
                    | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        for dock in self.window.findChildren(QDockWidget):
            dock.setFeatures(features)
            if operator and dock.isFloating():
                dock.setFloating(False)
        results = getattr(self.window, "docks", {}).get("results")
        if results is not None:
            results.toggleViewAction().setEnabled(not operator)
            if operator:
                results.setVisible(True)

    def approve_recipe(self) -> None:
        from app.recipe_picker import approve

        path = self.window.recipe_path
        if path is None:
            QMessageBox.information(self.window, "Approve recipe", "Load a recipe first (Recipe…).")
            return
        approved = approve(self.settings, path)
        self.window.statusBar().showMessage(f"Operators may pick {counted(len(approved), 'recipe')}; added {path.name}",
                                            8000)

    def unlock(self, pin: str) -> bool:
        """Engineer mode if the PIN matches; the check the dialog and the tests share."""
        if self.settings.check_pin(pin):
            self.set_mode(ENGINEER)
            return True
        return False

    def _ask_engineer(self) -> None:
        if self.mode == ENGINEER:
            return
        if not self.settings.has_pin():
            self.set_mode(ENGINEER)
            return
        pin, ok = QInputDialog.getText(self.window, "Engineer mode", "Engineer PIN:", QLineEdit.EchoMode.Password)
        if not (ok and self.unlock(pin)):
            self.set_mode(OPERATOR)
            if ok:
                QMessageBox.warning(self.window, "Engineer mode", "Wrong PIN: the station stays in operator mode.")

    def change_pin(self) -> None:
        if self.mode != ENGINEER:
            QMessageBox.information(self.window, "Engineer PIN", "Switch to engineer mode first.")
            return
        pin, ok = QInputDialog.getText(self.window, "Engineer PIN", "New PIN (4 or more characters):",
                                       QLineEdit.EchoMode.Password)
        if ok and len(pin) >= 4:
            self.settings.set_pin(pin)  # it said nothing: whether the PIN took was left to guess
            self.window.statusBar().showMessage("Engineer PIN set: leaving operator mode asks for it", 10000)
        elif ok:
            QMessageBox.warning(self.window, "Engineer PIN", "The PIN needs at least 4 characters; it was not changed.")


MAINTENANCE = ("Prune image archive", "Teach job", "Adapt the detector")
ENGINEER_DOCKS = ("text", "tuning", "plots")


def maintenance_actions(window) -> list:
    """Menu actions only an engineer may reach (found by their text: the records link adds them)."""
    return [a for a in window.file_menu.actions() if a.text().startswith(MAINTENANCE)]


class _DockWatcher(QObject):
    """A dock added to the window after the mode was set gets the mode's features once it is built."""

    def __init__(self, modes: ModeController) -> None:
        super().__init__(modes.window)
        self.modes = modes
        self._later = QTimer(self)  # after the child's constructor and addDockWidget; many children, one pass
        self._later.setSingleShot(True)
        self._later.timeout.connect(modes.fix_docks)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt naming
        # while a child is being constructed it is not yet a QDockWidget to Python: any widget child is looked at
        if event.type() == QEvent.Type.ChildAdded and event.child().isWidgetType() and not self._later.isActive():
            self._later.start(0)
        return False
