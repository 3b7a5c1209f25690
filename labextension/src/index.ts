/**
 * jupyter-codecheck's JupyterLab extension: a right-sidebar panel that checks the active notebook
 * cell (or every code cell) with the server extension, or with the kernel when it is not enabled.
 */
import { ILabShell, JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { ICommandPalette } from '@jupyterlab/apputils';
import { CodeCell } from '@jupyterlab/cells';
import { INotebookTracker, NotebookActions } from '@jupyterlab/notebook';
import { ISettingRegistry } from '@jupyterlab/settingregistry';

import { CheckController } from './controller';
import { CodecheckPanel } from './panel';
import { DEFAULTS, readSettings } from './settings';

const PLUGIN_ID = 'jupyter-codecheck:plugin';

namespace CommandIDs {
  export const checkCell = 'codecheck:check-cell';
  export const checkNotebook = 'codecheck:check-notebook';
  export const cancel = 'codecheck:cancel';
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: PLUGIN_ID,
  description: 'Check notebook code with a small language model, token by token.',
  autoStart: true,
  requires: [INotebookTracker, ILabShell],
  optional: [ISettingRegistry, ICommandPalette],
  activate: async (
    app: JupyterFrontEnd,
    tracker: INotebookTracker,
    shell: ILabShell,
    registry: ISettingRegistry | null,
    palette: ICommandPalette | null
  ) => {
    const controller = new CheckController({ ...DEFAULTS });
    const panel = new CodecheckPanel(controller, tracker);
    shell.add(panel, 'right', { rank: 650 });

    app.commands.addCommand(CommandIDs.checkCell, {
      label: 'Check Cell with Code Check',
      isEnabled: () => tracker.activeCell instanceof CodeCell,
      execute: () => {
        const nb = tracker.currentWidget;
        if (nb && tracker.activeCell) {
          shell.activateById(panel.id);
          return controller.checkCell(nb, tracker.activeCell);
        }
      }
    });
    app.commands.addCommand(CommandIDs.checkNotebook, {
      label: 'Check All Code Cells with Code Check',
      isEnabled: () => tracker.currentWidget !== null,
      execute: () => {
        if (tracker.currentWidget) {
          shell.activateById(panel.id);
          return controller.checkNotebook(tracker.currentWidget);
        }
      }
    });
    app.commands.addCommand(CommandIDs.cancel, {
      label: 'Cancel Code Check',
      execute: () => controller.cancel()
    });
    for (const command of [CommandIDs.checkCell, CommandIDs.checkNotebook, CommandIDs.cancel]) {
      palette?.addItem({ command, category: 'Code Check' });
    }

    // as the cell is scheduled, before its execute request is sent: the kernel reads its facts
    // first, of the state it runs in (after it ran, its own drop or pop would be held against it)
    NotebookActions.executionScheduled.connect((_, { notebook, cell }) => {
      const nb = tracker.find(p => p.content === notebook);
      if (controller.settings.autoCheckOnRun && nb && cell instanceof CodeCell) {
        controller.checkOnRun(nb, cell);
      }
    });

    // a cell that raised: its repair (the failure as input), under the same switch as the check
    NotebookActions.executed.connect((_, { notebook, cell, success, error }) => {
      const nb = tracker.find(p => p.content === notebook);
      if (controller.settings.autoCheckOnRun && nb && cell instanceof CodeCell) {
        controller.repairOnRun(nb, cell, success ? null : error);
      }
    });

    if (registry) {
      try {
        const settings = await registry.load(PLUGIN_ID);
        const update = () => {
          controller.settings = readSettings(settings);
          if (tracker.activeCell) {
            controller.highlight(tracker.activeCell);
          }
          panel.schedule();
        };
        settings.changed.connect(update);
        update();
      } catch (reason) {
        console.warn('jupyter-codecheck: settings could not be loaded, using the defaults', reason);
      }
    }
  }
};

export default plugin;
