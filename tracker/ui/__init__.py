"""The Textual screens: the GM view, the read-only and player views, the demo.

The only package that imports textual (the rules, the store and the headless CLI never do).
"""
