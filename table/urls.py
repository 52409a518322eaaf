from django.contrib.auth import views as auth_views
from django.urls import path

from . import recall, views

urlpatterns = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.lobby, name="lobby"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/dealer/", views.dealer_console, name="dealer_console"),
    path("tables/<int:table_id>/recall.json", views.recall_json, name="recall_json"),
    path("rounds/mine/", recall.my_rounds, name="my_rounds"),
    path("rounds/<int:round_id>/", recall.round_detail, name="round_detail"),
    path("status/lag.json", views.lag_status, name="lag_status"),
]
