Creator "Superstep, from networkx 2.8.8 les_miserables_graph() (Debian python3-networkx 2.8.8-1)"
graph
[
  directed 0
  node
  [
    id 0
    label "Myriel"
  ]
  node
  [
    id 1
    label "Napoleon"
  ]
  node
  [
    id 2
    label "MlleBaptistine"
  ]
  node
  [
    id 3
    label "MmeMagloire"
  ]
  node
  [
    id 4
    label "CountessDeLo"
  ]
  node
  [
    id 5
    label "Geborand"
  ]
  node
  [
    id 6
    label "Champtercier"
  ]
  node
  [
    id 7
    label "Cravatte"
  ]
  node
  [
    id 8
    label "Count"
  ]
  node
  [
    id 9
    label "OldMan"
  ]
  node
  [
    id 10
    label "Labarre"
  ]
  node
  [
    id 11
    label "Valjean"
  ]
  node
  [
    id 12
    label "Marguerite"
  ]
  node
  [
    id 13
    label "MmeDeR"
  ]
  node
  [
    id 14
    label "Isabeau"
  ]
  node
  [
    id 15
    label "Gervais"
  ]
  node
  [
    id 16
    label "Tholomyes"
  ]
  node
  [
    id 17
    label "Listolier"
  ]
  node
  [
    id 18
    label "Fameuil"
  ]
  node
  [
    id 19
    label "Blacheville"
  ]
  node
  [
    id 20
    label "Favourite"
  ]
  node
  [
    id 21
    label "Dahlia"
  ]
  node
  [
    id 22
    label "Zephine"
  ]
  node
  [
    id 23
    label "Fantine"
  ]
  node
  [
    id 24
    label "MmeThenardier"
  ]
  node
  [
    id 25
    label "Thenardier"
  ]
  node
  [
    id 26
    label "Cosette"
  ]
  node
  [
    id 27
    label "Javert"
  ]
  node
  [
    id 28
    label "Fauchelevent"
  ]
  node
  [
    id 29
    label "Bamatabois"
  ]
  node
  [
    id 30
    label "Perpetue"
  ]
  node
  [
    id 31
    label "Simplice"
  ]
  node
  [
    id 32
    label "Scaufflaire"
  ]
  node
  [
    id 33
    label "Woman1"
  ]
  node
  [
    id 34
    label "Judge"
  ]
  node
  [
    id 35
    label "Champmathieu"
  ]
  node
  [
    id 36
    label "Brevet"
  ]
  node
  [
    id 37
    label "Chenildieu"
  ]
  node
  [
    id 38
    label "Cochepaille"
  ]
  node
  [
    id 39
    label "Pontmercy"
  ]
  node
  [
    id 40
    label "Boulatruelle"
  ]
  node
  [
    id 41
    label "Eponine"
  ]
  node
  [
    id 42
    label "Anzelma"
  ]
  node
  [
    id 43
    label "Woman2"
  ]
  node
  [
    id 44
    label "MotherInnocent"
  ]
  node
  [
    id 45
    label "Gribier"
  ]
  node
  [
    id 46
    label "Jondrette"
  ]
  node
  [
    id 47
    label "MmeBurgon"
  ]
  node
  [
    id 48
    label "Gavroche"
  ]
  node
  [
    id 49
    label "Gillenormand"
  ]
  node
  [
    id 50
    label "Magnon"
  ]
  node
  [
    id 51
    label "MlleGillenormand"
  ]
  node
  [
    id 52
    label "MmePontmercy"
  ]
  node
  [
    id 53
    label "MlleVaubois"
  ]
  node
  [
    id 54
    label "LtGillenormand"
  ]
  node
  [
    id 55
    label "Marius"
  ]
  node
  [
    id 56
    label "BaronessT"
  ]
  node
  [
    id 57
    label "Mabeuf"
  ]
  node
  [
    id 58
    label "Enjolras"
  ]
  node
  [
    id 59
    label "Combeferre"
  ]
  node
  [
    id 60
    label "Prouvaire"
  ]
  node
  [
    id 61
    label "Feuilly"
  ]
  node
  [
    id 62
    label "Courfeyrac"
  ]
  node
  [
    id 63
    label "Bahorel"
  ]
  node
  [
    id 64
    label "Bossuet"
  ]
  node
  [
    id 65
    label "Joly"
  ]
  node
  [
    id 66
    label "Grantaire"
  ]
  node
  [
    id 67
    label "MotherPlutarch"
  ]
  node
  [
    id 68
    label "Gueulemer"
  ]
  node
  [
    id 69
    label "Babet"
  ]
  node
  [
    id 70
    label "Claquesous"
  ]
  node
  [
    id 71
    label "Montparnasse"
  ]
  node
  [
    id 72
    label "Toussaint"
  ]
  node
  [
    id 73
    label "Child1"
  ]
  node
  [
    id 74
    label "Child2"
  ]
  node
  [
    id 75
    label "Brujon"
  ]
  node
  [
    id 76
    label "MmeHucheloup"
  ]
  edge
  [
    source 1
    target 0
    value 1
  ]
  edge
  [
    source 2
    target 0
    value 8
  ]
  edge
  [
    source 3
    target 0
    value 10
  ]
  edge
  [
    source 3
    target 2
    value 6
  ]
  edge
  [
    source 4
    target 0
    value 1
  ]
  edge
  [
    source 5
    target 0
    value 1
  ]
  edge
  [
    source 6
    target 0
    value 1
  ]
  edge
  [
    source 7
    target 0
    value 1
  ]
  edge
  [
    source 8
    target 0
    value 2
  ]
  edge
  [
    source 9
    target 0
    value 1
  ]
  edge
  [
    source 11
    target 10
    value 1
  ]
  edge
  [
    source 11
    target 3
    value 3
  ]
  edge
  [
    source 11
    target 2
    value 3
  ]
  edge
  [
    source 11
    target 0
    value 5
  ]
  edge
  [
    source 12
    target 11
    value 1
  ]
  edge
  [
    source 13
    target 11
    value 1
  ]
  edge
  [
    source 14
    target 11
    value 1
  ]
  edge
  [
    source 15
    target 11
    value 1
  ]
  edge
  [
    source 17
    target 16
    value 4
  ]
  edge
  [
    source 18
    target 16
    value 4
  ]
  edge
  [
    source 18
    target 17
    value 4
  ]
  edge
  [
    source 19
    target 16
    value 4
  ]
  edge
  [
    source 19
    target 17
    value 4
  ]
  edge
  [
    source 19
    target 18
    value 4
  ]
  edge
  [
    source 20
    target 16
    value 3
  ]
  edge
  [
    source 20
    target 17
    value 3
  ]
  edge
  [
    source 20
    target 18
    value 3
  ]
  edge
  [
    source 20
    target 19
    value 4
  ]
  edge
  [
    source 21
    target 16
    value 3
  ]
  edge
  [
    source 21
    target 17
    value 3
  ]
  edge
  [
    source 21
    target 18
    value 3
  ]
  edge
  [
    source 21
    target 19
    value 3
  ]
  edge
  [
    source 21
    target 20
    value 5
  ]
  edge
  [
    source 22
    target 16
    value 3
  ]
  edge
  [
    source 22
    target 17
    value 3
  ]
  edge
  [
    source 22
    target 18
    value 3
  ]
  edge
  [
    source 22
    target 19
    value 3
  ]
  edge
  [
    source 22
    target 20
    value 4
  ]
  edge
  [
    source 22
    target 21
    value 4
  ]
  edge
  [
    source 23
    target 16
    value 3
  ]
  edge
  [
    source 23
    target 17
    value 3
  ]
  edge
  [
    source 23
    target 18
    value 3
  ]
  edge
  [
    source 23
    target 19
    value 3
  ]
  edge
  [
    source 23
    target 20
    value 4
  ]
  edge
  [
    source 23
    target 21
    value 4
  ]
  edge
  [
    source 23
    target 22
    value 4
  ]
  edge
  [
    source 23
    target 12
    value 2
  ]
  edge
  [
    source 23
    target 11
    value 9
  ]
  edge
  [
    source 24
    target 23
    value 2
  ]
  edge
  [
    source 24
    target 11
    value 7
  ]
  edge
  [
    source 25
    target 24
    value 13
  ]
  edge
  [
    source 25
    target 23
    value 1
  ]
  edge
  [
    source 25
    target 11
    value 12
  ]
  edge
  [
    source 26
    target 24
    value 4
  ]
  edge
  [
    source 26
    target 11
    value 31
  ]
  edge
  [
    source 26
    target 16
    value 1
  ]
  edge
  [
    source 26
    target 25
    value 1
  ]
  edge
  [
    source 27
    target 11
    value 17
  ]
  edge
  [
    source 27
    target 23
    value 5
  ]
  edge
  [
    source 27
    target 25
    value 5
  ]
  edge
  [
    source 27
    target 24
    value 1
  ]
  edge
  [
    source 27
    target 26
    value 1
  ]
  edge
  [
    source 28
    target 11
    value 8
  ]
  edge
  [
    source 28
    target 27
    value 1
  ]
  edge
  [
    source 29
    target 23
    value 1
  ]
  edge
  [
    source 29
    target 27
    value 1
  ]
  edge
  [
    source 29
    target 11
    value 2
  ]
  edge
  [
    source 30
    target 23
    value 1
  ]
  edge
  [
    source 31
    target 30
    value 2
  ]
  edge
  [
    source 31
    target 11
    value 3
  ]
  edge
  [
    source 31
    target 23
    value 2
  ]
  edge
  [
    source 31
    target 27
    value 1
  ]
  edge
  [
    source 32
    target 11
    value 1
  ]
  edge
  [
    source 33
    target 11
    value 2
  ]
  edge
  [
    source 33
    target 27
    value 1
  ]
  edge
  [
    source 34
    target 11
    value 3
  ]
  edge
  [
    source 34
    target 29
    value 2
  ]
  edge
  [
    source 35
    target 11
    value 3
  ]
  edge
  [
    source 35
    target 34
    value 3
  ]
  edge
  [
    source 35
    target 29
    value 2
  ]
  edge
  [
    source 36
    target 34
    value 2
  ]
  edge
  [
    source 36
    target 35
    value 2
  ]
  edge
  [
    source 36
    target 11
    value 2
  ]
  edge
  [
    source 36
    target 29
    value 1
  ]
  edge
  [
    source 37
    target 34
    value 2
  ]
  edge
  [
    source 37
    target 35
    value 2
  ]
  edge
  [
    source 37
    target 36
    value 2
  ]
  edge
  [
    source 37
    target 11
    value 2
  ]
  edge
  [
    source 37
    target 29
    value 1
  ]
  edge
  [
    source 38
    target 34
    value 2
  ]
  edge
  [
    source 38
    target 35
    value 2
  ]
  edge
  [
    source 38
    target 36
    value 2
  ]
  edge
  [
    source 38
    target 37
    value 2
  ]
  edge
  [
    source 38
    target 11
    value 2
  ]
  edge
  [
    source 38
    target 29
    value 1
  ]
  edge
  [
    source 39
    target 25
    value 1
  ]
  edge
  [
    source 40
    target 25
    value 1
  ]
  edge
  [
    source 41
    target 24
    value 2
  ]
  edge
  [
    source 41
    target 25
    value 3
  ]
  edge
  [
    source 42
    target 41
    value 2
  ]
  edge
  [
    source 42
    target 25
    value 2
  ]
  edge
  [
    source 42
    target 24
    value 1
  ]
  edge
  [
    source 43
    target 11
    value 3
  ]
  edge
  [
    source 43
    target 26
    value 1
  ]
  edge
  [
    source 43
    target 27
    value 1
  ]
  edge
  [
    source 44
    target 28
    value 3
  ]
  edge
  [
    source 44
    target 11
    value 1
  ]
  edge
  [
    source 45
    target 28
    value 2
  ]
  edge
  [
    source 47
    target 46
    value 1
  ]
  edge
  [
    source 48
    target 47
    value 2
  ]
  edge
  [
    source 48
    target 25
    value 1
  ]
  edge
  [
    source 48
    target 27
    value 1
  ]
  edge
  [
    source 48
    target 11
    value 1
  ]
  edge
  [
    source 49
    target 26
    value 3
  ]
  edge
  [
    source 49
    target 11
    value 2
  ]
  edge
  [
    source 50
    target 49
    value 1
  ]
  edge
  [
    source 50
    target 24
    value 1
  ]
  edge
  [
    source 51
    target 49
    value 9
  ]
  edge
  [
    source 51
    target 26
    value 2
  ]
  edge
  [
    source 51
    target 11
    value 2
  ]
  edge
  [
    source 52
    target 51
    value 1
  ]
  edge
  [
    source 52
    target 39
    value 1
  ]
  edge
  [
    source 53
    target 51
    value 1
  ]
  edge
  [
    source 54
    target 51
    value 2
  ]
  edge
  [
    source 54
    target 49
    value 1
  ]
  edge
  [
    source 54
    target 26
    value 1
  ]
  edge
  [
    source 55
    target 51
    value 6
  ]
  edge
  [
    source 55
    target 49
    value 12
  ]
  edge
  [
    source 55
    target 39
    value 1
  ]
  edge
  [
    source 55
    target 54
    value 1
  ]
  edge
  [
    source 55
    target 26
    value 21
  ]
  edge
  [
    source 55
    target 11
    value 19
  ]
  edge
  [
    source 55
    target 16
    value 1
  ]
  edge
  [
    source 55
    target 25
    value 2
  ]
  edge
  [
    source 55
    target 41
    value 5
  ]
  edge
  [
    source 55
    target 48
    value 4
  ]
  edge
  [
    source 56
    target 49
    value 1
  ]
  edge
  [
    source 56
    target 55
    value 1
  ]
  edge
  [
    source 57
    target 55
    value 1
  ]
  edge
  [
    source 57
    target 41
    value 1
  ]
  edge
  [
    source 57
    target 48
    value 1
  ]
  edge
  [
    source 58
    target 55
    value 7
  ]
  edge
  [
    source 58
    target 48
    value 7
  ]
  edge
  [
    source 58
    target 27
    value 6
  ]
  edge
  [
    source 58
    target 57
    value 1
  ]
  edge
  [
    source 58
    target 11
    value 4
  ]
  edge
  [
    source 59
    target 58
    value 15
  ]
  edge
  [
    source 59
    target 55
    value 5
  ]
  edge
  [
    source 59
    target 48
    value 6
  ]
  edge
  [
    source 59
    target 57
    value 2
  ]
  edge
  [
    source 60
    target 48
    value 1
  ]
  edge
  [
    source 60
    target 58
    value 4
  ]
  edge
  [
    source 60
    target 59
    value 2
  ]
  edge
  [
    source 61
    target 48
    value 2
  ]
  edge
  [
    source 61
    target 58
    value 6
  ]
  edge
  [
    source 61
    target 60
    value 2
  ]
  edge
  [
    source 61
    target 59
    value 5
  ]
  edge
  [
    source 61
    target 57
    value 1
  ]
  edge
  [
    source 61
    target 55
    value 1
  ]
  edge
  [
    source 62
    target 55
    value 9
  ]
  edge
  [
    source 62
    target 58
    value 17
  ]
  edge
  [
    source 62
    target 59
    value 13
  ]
  edge
  [
    source 62
    target 48
    value 7
  ]
  edge
  [
    source 62
    target 57
    value 2
  ]
  edge
  [
    source 62
    target 41
    value 1
  ]
  edge
  [
    source 62
    target 61
    value 6
  ]
  edge
  [
    source 62
    target 60
    value 3
  ]
  edge
  [
    source 63
    target 59
    value 5
  ]
  edge
  [
    source 63
    target 48
    value 5
  ]
  edge
  [
    source 63
    target 62
    value 6
  ]
  edge
  [
    source 63
    target 57
    value 2
  ]
  edge
  [
    source 63
    target 58
    value 4
  ]
  edge
  [
    source 63
    target 61
    value 3
  ]
  edge
  [
    source 63
    target 60
    value 2
  ]
  edge
  [
    source 63
    target 55
    value 1
  ]
  edge
  [
    source 64
    target 55
    value 5
  ]
  edge
  [
    source 64
    target 62
    value 12
  ]
  edge
  [
    source 64
    target 48
    value 5
  ]
  edge
  [
    source 64
    target 63
    value 4
  ]
  edge
  [
    source 64
    target 58
    value 10
  ]
  edge
  [
    source 64
    target 61
    value 6
  ]
  edge
  [
    source 64
    target 60
    value 2
  ]
  edge
  [
    source 64
    target 59
    value 9
  ]
  edge
  [
    source 64
    target 57
    value 1
  ]
  edge
  [
    source 64
    target 11
    value 1
  ]
  edge
  [
    source 65
    target 63
    value 5
  ]
  edge
  [
    source 65
    target 64
    value 7
  ]
  edge
  [
    source 65
    target 48
    value 3
  ]
  edge
  [
    source 65
    target 62
    value 5
  ]
  edge
  [
    source 65
    target 58
    value 5
  ]
  edge
  [
    source 65
    target 61
    value 5
  ]
  edge
  [
    source 65
    target 60
    value 2
  ]
  edge
  [
    source 65
    target 59
    value 5
  ]
  edge
  [
    source 65
    target 57
    value 1
  ]
  edge
  [
    source 65
    target 55
    value 2
  ]
  edge
  [
    source 66
    target 64
    value 3
  ]
  edge
  [
    source 66
    target 58
    value 3
  ]
  edge
  [
    source 66
    target 59
    value 1
  ]
  edge
  [
    source 66
    target 62
    value 2
  ]
  edge
  [
    source 66
    target 65
    value 2
  ]
  edge
  [
    source 66
    target 48
    value 1
  ]
  edge
  [
    source 66
    target 63
    value 1
  ]
  edge
  [
    source 66
    target 61
    value 1
  ]
  edge
  [
    source 66
    target 60
    value 1
  ]
  edge
  [
    source 67
    target 57
    value 3
  ]
  edge
  [
    source 68
    target 25
    value 5
  ]
  edge
  [
    source 68
    target 11
    value 1
  ]
  edge
  [
    source 68
    target 24
    value 1
  ]
  edge
  [
    source 68
    target 27
    value 1
  ]
  edge
  [
    source 68
    target 48
    value 1
  ]
  edge
  [
    source 68
    target 41
    value 1
  ]
  edge
  [
    source 69
    target 25
    value 6
  ]
  edge
  [
    source 69
    target 68
    value 6
  ]
  edge
  [
    source 69
    target 11
    value 1
  ]
  edge
  [
    source 69
    target 24
    value 1
  ]
  edge
  [
    source 69
    target 27
    value 2
  ]
  edge
  [
    source 69
    target 48
    value 1
  ]
  edge
  [
    source 69
    target 41
    value 1
  ]
  edge
  [
    source 70
    target 25
    value 4
  ]
  edge
  [
    source 70
    target 69
    value 4
  ]
  edge
  [
    source 70
    target 68
    value 4
  ]
  edge
  [
    source 70
    target 11
    value 1
  ]
  edge
  [
    source 70
    target 24
    value 1
  ]
  edge
  [
    source 70
    target 27
    value 1
  ]
  edge
  [
    source 70
    target 41
    value 1
  ]
  edge
  [
    source 70
    target 58
    value 1
  ]
  edge
  [
    source 71
    target 27
    value 1
  ]
  edge
  [
    source 71
    target 69
    value 2
  ]
  edge
  [
    source 71
    target 68
    value 2
  ]
  edge
  [
    source 71
    target 70
    value 2
  ]
  edge
  [
    source 71
    target 11
    value 1
  ]
  edge
  [
    source 71
    target 48
    value 1
  ]
  edge
  [
    source 71
    target 41
    value 1
  ]
  edge
  [
    source 71
    target 25
    value 1
  ]
  edge
  [
    source 72
    target 26
    value 2
  ]
  edge
  [
    source 72
    target 27
    value 1
  ]
  edge
  [
    source 72
    target 11
    value 1
  ]
  edge
  [
    source 73
    target 48
    value 2
  ]
  edge
  [
    source 74
    target 48
    value 2
  ]
  edge
  [
    source 74
    target 73
    value 3
  ]
  edge
  [
    source 75
    target 69
    value 3
  ]
  edge
  [
    source 75
    target 68
    value 3
  ]
  edge
  [
    source 75
    target 25
    value 3
  ]
  edge
  [
    source 75
    target 48
    value 1
  ]
  edge
  [
    source 75
    target 41
    value 1
  ]
  edge
  [
    source 75
    target 70
    value 1
  ]
  edge
  [
    source 75
    target 71
    value 1
  ]
  edge
  [
    source 76
    target 64
    value 1
  ]
  edge
  [
    source 76
    target 65
    value 1
  ]
  edge
  [
    source 76
    target 66
    value 1
  ]
  edge
  [
    source 76
    target 63
    value 1
  ]
  edge
  [
    source 76
    target 62
    value 1
  ]
  edge
  [
    source 76
    target 48
    value 1
  ]
  edge
  [
    source 76
    target 58
    value 1
  ]
]
