@routing @bicycle
Feature: Bicycle - turn restrictions do not bind bicycles
# Waymark's own scenarios in OSRM's feature form. OSRM's bicycle profile reads no turn restriction
# (`use_turn_restrictions` is false: a cyclist can always get off and walk), not even one for bicycles.
# (Node letters avoid n, e, s, w: Waymark folds a change between names that differ by a compass letter,
# as OSRM's car profile does; OSRM's bicycle profile has no such list, a difference left as it is.)

    Background:
        Given the profile "bicycle"
        Given a grid size of 200 meters

    Scenario: Bicycle - a no-left-turn sign for cars is taken by bikes
        Given the node map
            """
              k
            h j l
              m
            """

        And the ways
            | nodes | highway     |
            | mj    | residential |
            | jk    | residential |
            | hj    | residential |
            | jl    | residential |
            | kl    | residential |
            | kh    | residential |

        And the relations
            | type        | way:from | way:to | node:via | restriction  |
            | restriction | mj       | hj     | j        | no_left_turn |

        When I route I should get
            | from | to | route    |
            | m    | h  | mj,hj,hj |

    Scenario: Bicycle - only-straight-on and restrictions for bicycles do not bind either
        Given the node map
            """
              k
            h j l
              m
            """

        And the ways
            | nodes | highway     |
            | mj    | residential |
            | jk    | residential |
            | hj    | residential |
            | jl    | residential |
            | kl    | residential |
            | kh    | residential |

        And the relations
            | type        | way:from | way:to | node:via | restriction:bicycle | restriction      |
            | restriction | mj       | jk     | j        |                     | only_straight_on |
            | restriction | hj       | jl     | j        | no_straight_on      |                  |

        When I route I should get
            | from | to | route    |
            | m    | l  | mj,jl,jl |
            | h    | l  | hj,jl,jl |
