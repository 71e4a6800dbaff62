"""The house rules that a reader checks by eye, checked by a script: no always_comb block
longer than a screen (issue 13 item 4, docs/DEVELOPING.md) and every relative link in the
tree's Markdown resolving to a file that exists; nic_top's user-logic ports as docs/user-logic.md
lists them."""
ORDER = 6
BUILD = []


def cases():
    return [{"name": "house", "pytest": "tests/house/test_house.py"}]
