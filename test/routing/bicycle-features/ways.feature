@routing @bicycle
Feature: Bicycle - ways beyond roads: platforms, piers, bridges, trains and ferries
# Waymark's own scenarios in OSRM's feature form.

    Background:
        Given the profile "bicycle"

    Scenario: Bicycle - platforms are ridden at walking pace, piers walked, unknown road types not used
        Then routability should be
            | highway | railway  | public_transport | man_made | bicycle | forw         | backw        |
            | (nil)   | platform |                  |          |         | cycling      | cycling      |
            | (nil)   |          | platform         |          |         | cycling      | cycling      |
            | (nil)   |          |                  | pier     |         | pushing bike | pushing bike |
            | pier    |          |                  |          |         |              |              |
            | road    |          |                  |          |         | cycling      | cycling      |
            | runway  |          |                  |          |         |              |              |
            | runway  |          |                  |          | yes     | cycling      | cycling      |

    Scenario: Bicycle - a movable bridge with no highway tag, ridden at 5 km/h
        Given a grid size of 200 meters
        And the node map
            """
            k l m n
            """

        And the ways
            | nodes | highway     | bridge  | name         |
            | kl    | residential |         | Canal Street |
            | lm    |             | movable | Swing Bridge |
            | mn    | residential |         | Dock Street  |

        When I route I should get
            | from | to | route                                             | modes                           | time      |
            | k    | n  | Canal Street,Swing Bridge,Dock Street,Dock Street | cycling,cycling,cycling,cycling | 240s +- 3 |

    Scenario: Bicycle - bikes ride trains that take them, in mode train
        Given the node map
            """
            p     q
            r     s
            """

        And the ways
            | nodes | highway     | railway | bicycle | name        |
            | pr    | residential |         |         | North Road  |
            | qs    | residential |         |         | South Road  |
            | pq    |             | train   | yes     | Ferry Line  |
            | rs    |             | rail    |         | Goods Line  |

        When I route I should get
            | from | to | route                                   | modes                          |
            | r    | s  | North Road,Ferry Line,South Road,South Road | cycling,train,cycling,cycling |

    Scenario: Bicycle - ferries in mode ferry
        Given the node map
            """
            a b   c d
            """

        And the ways
            | nodes | highway | route |
            | ab    | primary |       |
            | bc    |         | ferry |
            | cd    | primary |       |

        When I route I should get
            | from | to | route       | modes                         |
            | a    | d  | ab,bc,cd,cd | cycling,ferry,cycling,cycling |
