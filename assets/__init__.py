"""Package data: web apps, the phone shell, desktop fixtures and HTML5 games."""

from pathlib import Path

ASSETS = Path(__file__).resolve().parent
