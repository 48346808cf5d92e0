@routing @bicycle
Feature: Bicycle - where a bike is pushed
# Waymark's own scenarios, in the form of OSRM's feature files (read by test/routing/osrm-features/):
# where a bicycle may not be ridden but its rider may walk, it is pushed at walking pace, in the
# travel mode "pushing bike", and a change of mode is a step of its own.

    Background:
        Given the profile "bicycle"

    Scenario: Bicycle - against a one-way street the bike is walked, along it ridden
        Given a grid size of 200 meters
        And the node map
            """
            p q r s
            """

        And the ways
            | nodes | highway     | oneway | name       |
            | pq    | residential |        | Harbour Rd |
            | qr    | residential | yes    | Mill Lane  |
            | rs    | residential |        | Quay St    |

        When I route I should get
            | from | to | route                                   | modes                                |
            | p    | s  | Harbour Rd,Mill Lane,Quay St,Quay St    | cycling,cycling,cycling,cycling      |
            | s    | p  | Quay St,Mill Lane,Harbour Rd,Harbour Rd | cycling,pushing bike,cycling,cycling |

    Scenario: Bicycle - pushed against one-ways, not against roundabouts or motorways
        Then routability should be
            | highway     | oneway | junction   | forw    | backw        |
            | residential | yes    |            | cycling | pushing bike |
            | residential | -1     |            | pushing bike | cycling |
            | residential | yes    | roundabout | cycling |              |
            | primary     |        | roundabout | cycling |              |
            | cycleway    | yes    |            | cycling | pushing bike |
            | residential | no     |            | cycling | cycling      |

    Scenario: Bicycle - walking pace against the one-way, riding pace along it
        Then routability should be
            | highway     | oneway | forw    | backw      |
            | residential | yes    | 15 km/h | 4 km/h +-1 |
            | track       | yes    | 12 km/h | 4 km/h +-1 |

    Scenario: Bicycle - footways, pedestrian streets and steps are walked unless bikes are let on
        Then routability should be
            | highway    | bicycle    | foot | forw         | backw        |
            | footway    |            |      | pushing bike | pushing bike |
            | pedestrian |            |      | pushing bike | pushing bike |
            | steps      |            |      | pushing bike | pushing bike |
            | footway    | yes        |      | cycling      | cycling      |
            | pedestrian | designated |      | cycling      | cycling      |
            | footway    |            | no   |              |              |
            | steps      | no         |      |              |              |

    Scenario: Bicycle - walking speeds: 4 km/h on footways, 2 km/h on steps
        Then routability should be
            | highway | bothw      |
            | footway | 4 km/h +-1 |
            | steps   | 2 km/h +-1 |

    Scenario: Bicycle - where walkers may go and riders may not, the bike is pushed
        Then routability should be
            | highway   | foot | foot:forward | forw         | backw        |
            | bridleway |      |              |              |              |
            | bridleway | yes  |              | pushing bike | pushing bike |
            | runway    | yes  |              | pushing bike | pushing bike |
            | motorway  |      |              |              |              |
            | motorway  | yes  |              | pushing bike |              |
            | bridleway |      | yes          | pushing bike |              |

    Scenario: Bicycle - dismount signs make every direction a walk
        Then routability should be
            | highway     | bicycle  | oneway | forw         | backw        |
            | residential | dismount |        | pushing bike | pushing bike |
            | cycleway    | dismount | yes    | pushing bike | pushing bike |

    Scenario: Bicycle - a footway crossed on foot between two roads
        Given the node map
            """
            a b   c d
            """

        And the ways
            | nodes | highway     | name        |
            | ab    | residential | West Street |
            | bc    | footway     | Park Path   |
            | cd    | residential | East Street |

        When I route I should get
            | from | to | route                                         | modes                                      | time      |
            | a    | d  | West Street,Park Path,East Street,East Street | cycling,pushing bike,cycling,cycling       | 228s +- 3 |

    Scenario: Bicycle - a footway shortcut walked only when riding round takes longer
        Given the node map
            """
            a b   c d
              e   f
            """

        And the ways
            | nodes | highway     | name      |
            | ab    | residential | Long Road |
            | bc    | footway     | Shortcut  |
            | cd    | residential | Long Road |
            | befc  | residential | Detour    |

        When I route I should get
            | from | to | route                              | modes                                |
            | a    | d  | Long Road,Detour,Long Road,Long Road | cycling,cycling,cycling,cycling    |
