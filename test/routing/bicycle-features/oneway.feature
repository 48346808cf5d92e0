@routing @bicycle
Feature: Bicycle - one-ways and contraflow
# Waymark's own scenarios in OSRM's feature form: `oneway:bicycle` decides before `oneway`; contraflow
# lanes (`cycleway=opposite*`, on either side) let bikes ride against a one-way; a cycle lane or track
# opens a road bikes may not otherwise ride, in the direction it serves.

    Background:
        Given the profile "bicycle"

    Scenario: Bicycle - oneway:bicycle before oneway
        Then routability should be
            | highway     | oneway | oneway:bicycle | forw         | backw        |
            | residential | yes    | no             | cycling      | cycling      |
            | residential | yes    | 0              | cycling      | cycling      |
            | residential |        | yes            | cycling      | pushing bike |
            | residential | no     | -1             | pushing bike | cycling      |
            | residential | -1     | no             | cycling      | cycling      |

    Scenario: Bicycle - contraflow lanes ride against the one-way
        Then routability should be
            | highway     | oneway | cycleway      | cycleway:left  | cycleway:right | forw    | backw        |
            | residential | yes    | opposite      |                |                | cycling | cycling      |
            | residential | yes    | opposite_lane |                |                | cycling | cycling      |
            | residential | yes    |               | opposite_track |                | cycling | cycling      |
            | residential | yes    |               |                | opposite       | cycling | cycling      |
            | residential | yes    | lane          |                |                | cycling | pushing bike |
            | residential | -1     | track         |                |                | pushing bike | cycling |

    Scenario: Bicycle - a cycle track opens a road bikes may not ride, in its direction
        Then routability should be
            | highway  | cycleway | cycleway:left | oneway | forw    | backw   |
            | motorway |          |               |        |         |         |
            | motorway | track    |               |        | cycling |         |
            | motorway |          | opposite      |        | cycling | cycling |
            | trunk    | lane     |               |        | cycling | cycling |
            | footway  | track    |               | yes    | cycling | pushing bike |

    Scenario: Bicycle - a contraflow lane saves the walk round the block
        Given a grid size of 200 meters
        And the node map
            """
            a b c d
            """

        And the ways
            | nodes | highway     | oneway | cycleway      | name        |
            | ab    | residential |        |               | Fore Street |
            | bc    | residential | yes    | opposite_lane | Back Lane   |
            | cd    | residential |        |               | Side Street |

        When I route I should get
            | from | to | route                                          | modes                           |
            | d    | a  | Side Street,Back Lane,Fore Street,Fore Street  | cycling,cycling,cycling,cycling |
