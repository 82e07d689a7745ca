"""Superstep's JupyterLab server.

Serves the JupyterLab built in build/ (npm ci && npx webpack, or
./install.sh --lab) on Debian's jupyterlab_server and jupyter_server:

    /usr/bin/python3 lab/main.py --ServerApp.root_dir=notebooks [server options]

Server options are jupyter_server's (--port 8899, --ip 0.0.0.0,
--no-browser, --ServerApp.token=..., --ServerApp.allow_root=True).
The application settings (settings/) are part of the repository; a user's
settings and workspaces live in $SUPERSTEP_HOME/lab (by default
~/.local/share/superstep/lab), apart from any other JupyterLab's.
"""

import json
import os
import sys

from jupyterlab_server import LabServerApp
from tornado.web import StaticFileHandler
from traitlets import default

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "build")
# Debian's MathJax 2 (libjs-mathjax), served instead of the CDN's.
MATHJAX = "/usr/share/javascript/mathjax"


def _state_dir(name):
    home = os.environ.get("SUPERSTEP_HOME") or os.path.expanduser("~/.local/share/superstep")
    return os.path.join(home, "lab", name)


def _version():
    with open(os.path.join(HERE, "package.json"), encoding="utf-8") as f:
        return json.load(f)["version"]


def _jupyter_server_extension_points():
    return [{"module": __name__, "app": SuperstepLab}]


class SuperstepLab(LabServerApp):
    """JupyterLab 3.6.8 (the @jupyterlab/* packages of package.json) for Superstep."""

    name = "superstep_lab"
    app_name = "JupyterLab (Superstep)"
    description = __doc__
    extension_url = "/lab"
    default_url = "/lab"
    load_other_extensions = False

    static_dir = BUILD
    templates_dir = os.path.join(HERE, "templates")
    schemas_dir = os.path.join(BUILD, "schemas")
    themes_dir = os.path.join(BUILD, "themes")
    # page_config.json (disabled plugins) and overrides.json (setting defaults).
    app_settings_dir = os.path.join(HERE, "settings")

    @default("app_version")
    def _default_app_version(self):
        return _version()

    @default("user_settings_dir")
    def _default_user_settings_dir(self):
        return _state_dir("user-settings")

    @default("workspaces_dir")
    def _default_workspaces_dir(self):
        return _state_dir("workspaces")

    def initialize_handlers(self):
        super().initialize_handlers()
        if os.path.exists(os.path.join(MATHJAX, "MathJax.js")):
            self.handlers.append((r"/superstep/mathjax/(.*)", StaticFileHandler, {"path": MATHJAX}))

    def initialize_settings(self):
        super().initialize_settings()
        settings = self.serverapp.web_app.settings
        # No terminals: jupyter_server 1.x needs terminado for them, and the
        # front end has no terminal plugin.
        settings["terminals_available"] = False
        if os.path.exists(os.path.join(MATHJAX, "MathJax.js")) and not settings.get("mathjax_url"):
            settings["mathjax_url"] = "superstep/mathjax/MathJax.js"  # under base_url


def main():
    if not os.path.exists(os.path.join(BUILD, "bundle.js")):
        sys.exit(f"{BUILD} is not built: run ./install.sh --lab (or npm ci && npx webpack in {HERE})")
    SuperstepLab.launch_instance()


if __name__ == "__main__":
    main()
