"""The browser front end in a real headless Chromium."""
