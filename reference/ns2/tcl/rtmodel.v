v 1 link-down 3 1
v 1 link-down 3 1
v 1 link-down 1 3
v 1 link-down 1 3
v 2 link-up 3 1
v 2 link-up 3 1
v 2 link-up 1 3
v 2 link-up 1 3
