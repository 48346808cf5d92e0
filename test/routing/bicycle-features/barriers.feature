@routing @bicycle
Feature: Bicycle - barriers
# Waymark's own scenarios in OSRM's feature form: only `barrier=yes`, walls and (not audible) fences stop
# a bike; any other barrier, known or not, is passed. A node's own access tag decides first, except at a
# crossing, where a sign for the road's traffic says nothing about the bikes crossing it.

    Background:
        Given the profile "bicycle"

    Scenario: Bicycle - which barriers stop a bike
        Then routability should be
            | node/barrier   | node/sensory | bothw |
            |                |              | x     |
            | bollard        |              | x     |
            | gate           |              | x     |
            | lift_gate      |              | x     |
            | cycle_barrier  |              | x     |
            | kerb           |              | x     |
            | something_else |              | x     |
            | yes            |              |       |
            | wall           |              |       |
            | fence          |              |       |
            | fence          | audible      | x     |

    Scenario: Bicycle - a node's access tag decides before its barrier
        Then routability should be
            | node/barrier | node/access | node/bicycle | node/highway | bothw |
            | gate         | no          |              |              |       |
            | gate         | no          | yes          |              | x     |
            | wall         |             | yes          |              | x     |
            |              | private     |              |              |       |
            |              |             | no           | crossing     | x     |
            |              |             | no           |              |       |

    Scenario: Bicycle - a wall across the street is ridden round
        Given the node map
            """
            a b c
              d
            """

        And the nodes
            | node | barrier |
            | b    | wall    |

        And the ways
            | nodes | highway     |
            | abc   | residential |
            | adc   | residential |

        When I route I should get
            | from | to | route       |
            | a    | c  | adc,adc     |
