"""Running untrusted submissions in separate processes; only plain data comes back."""
