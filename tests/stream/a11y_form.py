#!/usr/bin/python3
"""A GTK 3 form for the accessibility tests and the agent task benchmark:
a name field, an email field, a password field, a check box, a list of 40
colours in a scroller that shows a few of them, a Submit button that writes
what was entered into a status label and, as one JSON line, to standard
output, and a Freeze button that stops the program answering (its main
loop sleeps) for as long as its argument says."""
import json
import sys
import time

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

freeze_seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0

window = Gtk.Window(title="voxl form")
window.set_default_size(400, 300)
window.move(40, 30)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
window.add(box)

name_label = Gtk.Label(label="Name")
box.pack_start(name_label, False, False, 0)
name = Gtk.Entry()
name.get_accessible().set_name("Name")
box.pack_start(name, False, False, 0)

email = Gtk.Entry()
email.get_accessible().set_name("Email")
box.pack_start(email, False, False, 0)

password = Gtk.Entry()
password.set_visibility(False)
password.set_text("hunter2")
password.get_accessible().set_name("Password")
box.pack_start(password, False, False, 0)

subscribe = Gtk.CheckButton(label="Subscribe")
box.pack_start(subscribe, False, False, 0)

colours = Gtk.ListBox()
colours.get_accessible().set_name("Colours")
for i in range(1, 41):
    colours.add(Gtk.Label(label="Colour %d" % i))
scroller = Gtk.ScrolledWindow()
scroller.set_min_content_height(60)
scroller.set_policy(Gtk.PolicyType.NEVER, Gtk.PolicyType.AUTOMATIC)
scroller.add(colours)
box.pack_start(scroller, False, False, 0)

status = Gtk.Label(label="Nothing submitted")
box.pack_start(status, False, False, 0)


def submitted(_button):
    ticked = "subscribed" if subscribe.get_active() else "not subscribed"
    status.set_text("Submitted: " + name.get_text() + ", " + ticked)
    row = colours.get_selected_row()
    print(json.dumps({"name": name.get_text(), "email": email.get_text(), "subscribed": subscribe.get_active(),
                      "colour": row.get_child().get_text() if row else None}), flush=True)


submit = Gtk.Button(label="Submit")
submit.connect("clicked", submitted)
box.pack_start(submit, False, False, 0)


def freeze(_button):
    # Answer nothing from now on: the accessibility bus's questions wait.
    GLib.idle_add(lambda: time.sleep(freeze_seconds))


freezer = Gtk.Button(label="Freeze")
freezer.connect("clicked", freeze)
box.pack_start(freezer, False, False, 0)

window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
